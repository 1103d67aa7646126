//! Whether short text is UTF-8, by a table-driven automaton: one table
//! load and one shift a byte, with no branch on the byte's kind, where
//! `core::str::from_utf8` decodes each character through branches and
//! tests the alignment at each ASCII byte. For names, cities and short
//! messages with a few accented letters, the case MessagePack carries
//! most.
//!
//! Each state is a multiple of 6 below 64 (a bit offset). `ROWS[byte]`
//! holds, at bit offset `state`, the 6-bit state that follows `state`
//! on `byte`, so a step is `ROWS[byte] >> state`, keeping its low six
//! bits, and the next table load never waits for the state. The
//! transitions are the well-formed sequences of the Unicode Standard
//! (Table 3-7): no overlong forms, no surrogates, nothing past
//! U+10FFFF, and the error state keeps itself.

/// A whole sequence has ended here (the start state).
const ACCEPT: u64 = 0;
/// Not UTF-8, whatever follows.
const ERROR: u64 = 6;
/// One continuation byte (`80..=BF`) owed.
const ONE: u64 = 12;
/// Two continuation bytes owed.
const TWO: u64 = 18;
/// After `E0`: `A0..=BF`, then one more.
const AFTER_E0: u64 = 24;
/// After `ED`: `80..=9F` (no surrogates), then one more.
const AFTER_ED: u64 = 30;
/// After `F0`: `90..=BF`, then two more.
const AFTER_F0: u64 = 36;
/// After `F1..=F3`: three continuation bytes.
const THREE: u64 = 42;
/// After `F4`: `80..=8F` (nothing past U+10FFFF), then two more.
const AFTER_F4: u64 = 48;

// Every state's six bits fit in a row.
const _: () = assert!(AFTER_F4 + 6 <= 64);

/// The state after `state` on `byte`.
const fn next(state: u64, byte: u8) -> u64 {
    let continues = matches!(byte, 0x80..=0xbf);
    match state {
        ACCEPT => match byte {
            0x00..=0x7f => ACCEPT,
            0xc2..=0xdf => ONE,
            0xe0 => AFTER_E0,
            0xe1..=0xec | 0xee..=0xef => TWO,
            0xed => AFTER_ED,
            0xf0 => AFTER_F0,
            0xf1..=0xf3 => THREE,
            0xf4 => AFTER_F4,
            _ => ERROR,
        },
        ONE if continues => ACCEPT,
        TWO if continues => ONE,
        THREE if continues => TWO,
        AFTER_E0 if matches!(byte, 0xa0..=0xbf) => ONE,
        AFTER_ED if matches!(byte, 0x80..=0x9f) => ONE,
        AFTER_F0 if matches!(byte, 0x90..=0xbf) => TWO,
        AFTER_F4 if matches!(byte, 0x80..=0x8f) => TWO,
        _ => ERROR,
    }
}

/// Every byte's row: the state after each state, at that state's offset.
static ROWS: [u64; 256] = {
    let mut rows = [0; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut state = ACCEPT;
        while state <= AFTER_F4 {
            rows[byte] |= next(state, byte as u8) << state;
            state += 6;
        }
        byte += 1;
    }
    rows
};

/// Whether `bytes` are UTF-8: a word of eight ASCII bytes between whole
/// sequences is passed over in one test, any other byte takes one step.
#[inline]
pub(crate) fn is_utf8(bytes: &[u8]) -> bool {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let step = |state: u64, byte: u8| ROWS[byte as usize] >> (state & 63);
    let mut state = ACCEPT;
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        if state & 63 == ACCEPT && u64::from_le_bytes(word.try_into().unwrap()) & HIGH == 0 {
            continue;
        }
        state = word.iter().fold(state, |state, &byte| step(state, byte));
    }
    state = words
        .remainder()
        .iter()
        .fold(state, |state, &byte| step(state, byte));
    state & 63 == ACCEPT
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_error_state_keeps_itself() {
        for byte in 0..=255u8 {
            assert_eq!(next(ERROR, byte), ERROR);
            assert_eq!((ROWS[byte as usize] >> ERROR) & 63, ERROR);
        }
    }

    #[test]
    fn agrees_with_core_on_every_two_byte_sequence() {
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                let bytes = [a, b];
                assert_eq!(
                    is_utf8(&bytes),
                    core::str::from_utf8(&bytes).is_ok(),
                    "{bytes:02x?}"
                );
            }
        }
    }

    /// Past 64 bytes, which `str_from_utf8` hands to simdutf8 with
    /// `std`: the automaton alone, for builds without it.
    #[test]
    fn agrees_with_core_on_long_text_cut_and_changed() {
        let text = "Käse, 日本語 and 🦀 crabs, ".repeat(4);
        let text = text.as_bytes();
        for len in 0..=text.len() {
            assert_eq!(
                is_utf8(&text[..len]),
                core::str::from_utf8(&text[..len]).is_ok(),
                "{len}"
            );
        }
        for at in 0..text.len() {
            for byte in [0x41, 0x80, 0xbf, 0xc3, 0xe6, 0xf0, 0xff] {
                let mut bytes = text.to_vec();
                bytes[at] = byte;
                assert_eq!(
                    is_utf8(&bytes),
                    core::str::from_utf8(&bytes).is_ok(),
                    "{at} {byte:02x}"
                );
            }
        }
    }
}
