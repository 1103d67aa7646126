//! Collects every error of one derive, so the user sees them all at once.

use std::cell::RefCell;
use std::fmt::Display;

use quote::ToTokens;

/// The errors found so far. Attribute parsing and checks record into it
/// and keep going; [`Ctxt::check`] folds them into one `syn::Error`. A
/// `Ctxt` dropped without being checked panics, as serde_derive's does: an
/// error recorded and then forgotten would let bad input compile.
pub struct Ctxt {
    /// `None` once checked.
    errors: RefCell<Option<Vec<syn::Error>>>,
}

impl Ctxt {
    pub fn new() -> Self {
        Ctxt {
            errors: RefCell::new(Some(Vec::new())),
        }
    }

    fn push(&self, error: syn::Error) {
        self.errors
            .borrow_mut()
            .as_mut()
            .expect("Ctxt used after it was checked")
            .push(error);
    }

    /// Records an error spanning `tokens`.
    pub fn error_spanned_by<T: ToTokens, M: Display>(&self, tokens: T, message: M) {
        self.push(syn::Error::new_spanned(tokens, message));
    }

    /// Records a `syn` error as it is.
    pub fn syn_error(&self, error: syn::Error) {
        self.push(error);
    }

    /// All errors folded into one, if there were any.
    pub fn check(self) -> Result<(), syn::Error> {
        let errors = self.errors.borrow_mut().take().expect("Ctxt checked twice");
        let mut errors = errors.into_iter();
        let Some(mut combined) = errors.next() else {
            return Ok(());
        };
        for error in errors {
            combined.combine(error);
        }
        Err(combined)
    }
}

impl Drop for Ctxt {
    fn drop(&mut self) {
        if !std::thread::panicking() && self.errors.borrow().is_some() {
            panic!("a Ctxt was dropped without its errors being checked");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checking_folds_every_error_into_one() {
        let cx = Ctxt::new();
        cx.error_spanned_by(quote::quote!(a), "first");
        cx.error_spanned_by(quote::quote!(b), "second");
        let errors: Vec<String> = cx
            .check()
            .unwrap_err()
            .into_iter()
            .map(|e| e.to_string())
            .collect();
        assert_eq!(errors, ["first", "second"]);
        assert!(Ctxt::new().check().is_ok());
    }

    #[test]
    #[should_panic(expected = "a Ctxt was dropped without its errors being checked")]
    fn a_ctxt_dropped_unchecked_panics() {
        let cx = Ctxt::new();
        cx.error_spanned_by(quote::quote!(a), "forgotten");
        drop(cx);
    }
}
