//! The calls waiting for their response, by msgid.

use bytes::Bytes;
use tokio::sync::oneshot;

use crate::hash::FnvMap;
use crate::MessageError;

/// The error and result of a response, as their encoded bytes; or why
/// the response with the call's msgid was malformed.
pub(crate) type Response = Result<(Bytes, Bytes), MessageError>;

/// The calls in flight, at most `max` (below `u32::MAX`, so a free msgid
/// is always found). Msgids count up from 0 as a wrapping `u32`, skipping
/// any still waiting, so an answer never reaches the wrong call; each call
/// also gets a sequence number, so a call that gives up removes its own
/// entry and never a later call's that reuses its msgid.
pub(crate) struct Pending {
    max: usize,
    next_msgid: u32,
    next_seq: u64,
    waiting: FnvMap<u32, (u64, oneshot::Sender<Response>)>,
    closed: bool,
}

/// Why a call was not registered.
#[derive(Debug)]
pub(crate) enum Refused {
    /// `max` calls are waiting; the sender is given back.
    Full(oneshot::Sender<Response>),
    /// The connection is closed.
    Closed,
}

impl Pending {
    /// No calls yet, at most `max` at once.
    pub(crate) fn new(max: usize) -> Pending {
        debug_assert!(max < u32::MAX as usize);
        Pending {
            max,
            next_msgid: 0,
            next_seq: 0,
            waiting: FnvMap::default(),
            closed: false,
        }
    }

    /// Whether `max` calls are waiting: taking one out makes room.
    pub(crate) fn is_full(&self) -> bool {
        self.waiting.len() >= self.max
    }

    /// Registers a call: its msgid and sequence number.
    pub(crate) fn insert(
        &mut self,
        sender: oneshot::Sender<Response>,
    ) -> Result<(u32, u64), Refused> {
        if self.closed {
            return Err(Refused::Closed);
        }
        if self.is_full() {
            return Err(Refused::Full(sender));
        }
        while self.waiting.contains_key(&self.next_msgid) {
            self.next_msgid = self.next_msgid.wrapping_add(1);
        }
        let msgid = self.next_msgid;
        self.next_msgid = msgid.wrapping_add(1);
        let seq = self.next_seq;
        self.next_seq += 1;
        self.waiting.insert(msgid, (seq, sender));
        Ok((msgid, seq))
    }

    /// Takes the call waiting for `msgid`, to hand it its response.
    pub(crate) fn answer(&mut self, msgid: u32) -> Option<oneshot::Sender<Response>> {
        self.waiting.remove(&msgid).map(|(_, sender)| sender)
    }

    /// Removes the call `(msgid, seq)` if it is still waiting: it gave up.
    /// `true` when that made room in a full map.
    pub(crate) fn cancel(&mut self, msgid: u32, seq: u64) -> bool {
        let full = self.is_full();
        if self.waiting.get(&msgid).is_some_and(|(s, _)| *s == seq) {
            self.waiting.remove(&msgid);
            return full;
        }
        false
    }

    /// Closes: every waiting call's sender is dropped, so each resolves
    /// as "connection closed", and no call registers again.
    pub(crate) fn close(&mut self) {
        self.closed = true;
        self.waiting.clear();
    }

    #[cfg(test)]
    fn starting_at(next_msgid: u32) -> Pending {
        Pending {
            next_msgid,
            ..Pending::new(1024)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sender() -> oneshot::Sender<Response> {
        oneshot::channel().0
    }

    #[test]
    fn msgids_wrap_and_skip_those_still_waiting() {
        let mut pending = Pending::starting_at(u32::MAX - 1);
        let first = pending.insert(sender()).unwrap().0;
        let second = pending.insert(sender()).unwrap().0;
        assert_eq!((first, second), (u32::MAX - 1, u32::MAX));
        assert_eq!(pending.insert(sender()).unwrap().0, 0);
        // Wrapped all the way round: u32::MAX - 1 is free again, u32::MAX
        // and 0 are still waiting.
        pending.next_msgid = u32::MAX - 1;
        assert!(pending.answer(u32::MAX - 1).is_some());
        assert_eq!(pending.insert(sender()).unwrap().0, u32::MAX - 1);
        assert_eq!(pending.insert(sender()).unwrap().0, 1);
    }

    #[test]
    fn a_call_that_gives_up_removes_only_its_own_entry() {
        let mut pending = Pending::new(1024);
        let (msgid, seq) = pending.insert(sender()).unwrap();
        assert!(pending.answer(msgid).is_some());
        pending.next_msgid = msgid;
        let (again, later) = pending.insert(sender()).unwrap();
        assert_eq!(again, msgid);
        pending.cancel(msgid, seq); // the first call, dropped late
        assert!(pending.waiting.contains_key(&msgid));
        pending.cancel(msgid, later);
        assert!(pending.waiting.is_empty());
    }

    #[test]
    fn no_more_than_max_wait_and_an_answer_makes_room() {
        let mut pending = Pending::new(2);
        let first = pending.insert(sender()).unwrap().0;
        pending.insert(sender()).unwrap();
        assert!(pending.is_full());
        assert!(matches!(pending.insert(sender()), Err(Refused::Full(_))));
        assert!(pending.answer(first).is_some());
        assert!(!pending.is_full());
        assert!(pending.insert(sender()).is_ok());
    }

    #[test]
    fn closing_drops_every_waiting_call_and_refuses_new_ones() {
        let mut pending = Pending::new(1024);
        let (tx, mut rx) = oneshot::channel();
        pending.insert(tx).unwrap();
        pending.close();
        assert!(rx.try_recv().is_err());
        assert!(matches!(pending.insert(sender()), Err(Refused::Closed)));
    }
}
