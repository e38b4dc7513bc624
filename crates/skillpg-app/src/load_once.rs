//! A value loaded once for every caller: the page's model service keeps each model's worker in
//! one, so that two views asking for the routing model at the same moment (the routing preview's
//! "Route" and the lab's "Run") start one worker and one download, and the second waits for the
//! first's result. Plain Rust over futures, tested natively; the page holds it in its context.

use std::cell::RefCell;
use std::future::Future;

use futures_channel::oneshot;

/// Where a load stands.
#[derive(Debug)]
enum Slot<T> {
    /// Nothing loaded, nothing loading.
    Empty,
    /// A load is running; these callers wait for its result.
    Loading(Vec<oneshot::Sender<Result<T, String>>>),
    /// Loaded.
    Ready(T),
}

/// One value, loaded by the first caller of [`LoadOnce::get_or_load`] and shared with every
/// caller after it. A failed load is not kept: the next caller loads again.
#[derive(Debug)]
pub struct LoadOnce<T> {
    slot: RefCell<Slot<T>>,
}

impl<T: Clone> Default for LoadOnce<T> {
    fn default() -> LoadOnce<T> {
        LoadOnce {
            slot: RefCell::new(Slot::Empty),
        }
    }
}

/// What a waiting caller reads when the load it waited for went away without an answer.
pub const LOAD_DROPPED: &str = "the load it waited for was stopped";

impl<T: Clone> LoadOnce<T> {
    /// The value when it is loaded.
    pub fn get(&self) -> Option<T> {
        match &*self.slot.borrow() {
            Slot::Ready(v) => Some(v.clone()),
            _ => None,
        }
    }

    /// Whether a load is running.
    pub fn is_loading(&self) -> bool {
        matches!(&*self.slot.borrow(), Slot::Loading(_))
    }

    /// The value: at once when loaded; the running load's result when one runs; else the
    /// result of `load`, which only this caller runs.
    pub async fn get_or_load<F, Fut>(&self, load: F) -> Result<T, String>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<T, String>>,
    {
        let waiting = {
            let mut slot = self.slot.borrow_mut();
            match &mut *slot {
                Slot::Ready(v) => return Ok(v.clone()),
                Slot::Loading(waiters) => {
                    let (tx, rx) = oneshot::channel();
                    waiters.push(tx);
                    Some(rx)
                }
                Slot::Empty => {
                    *slot = Slot::Loading(Vec::new());
                    None
                }
            }
        };
        if let Some(rx) = waiting {
            return rx.await.unwrap_or_else(|_| Err(LOAD_DROPPED.to_owned()));
        }
        // This caller loads; the slot is not borrowed across the await.
        let result = load().await;
        let previous = std::mem::replace(
            &mut *self.slot.borrow_mut(),
            match &result {
                Ok(v) => Slot::Ready(v.clone()),
                Err(_) => Slot::Empty,
            },
        );
        if let Slot::Loading(waiters) = previous {
            for tx in waiters {
                let _ = tx.send(result.clone());
            }
        }
        result
    }

    /// Forgets the value (after it failed): the next caller loads afresh. A load that is running
    /// keeps running and its waiters get its result.
    pub fn forget(&self) {
        let mut slot = self.slot.borrow_mut();
        if matches!(&*slot, Slot::Ready(_)) {
            *slot = Slot::Empty;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;
    use std::pin::pin;
    use std::task::{Context, Poll, Waker};

    /// Polls `f` once.
    fn poll<F: Future>(f: std::pin::Pin<&mut F>) -> Poll<F::Output> {
        f.poll(&mut Context::from_waker(Waker::noop()))
    }

    #[test]
    fn two_callers_at_once_load_once_and_both_get_the_value() {
        let once: LoadOnce<u32> = LoadOnce::default();
        let loads = Cell::new(0);
        let (finish, finished) = oneshot::channel::<u32>();
        let load = || {
            loads.set(loads.get() + 1);
            async move { finished.await.map_err(|_| "dropped".to_owned()) }
        };
        let mut first = pin!(once.get_or_load(load));
        assert!(
            poll(first.as_mut()).is_pending(),
            "the download is under way"
        );
        assert!(once.is_loading());
        // The second caller comes while the first loads: it must not start another load.
        let mut second = pin!(once.get_or_load(|| {
            loads.set(loads.get() + 1);
            async { Ok(99) }
        }));
        assert!(
            poll(second.as_mut()).is_pending(),
            "the second caller waits"
        );
        finish.send(7).expect("the load waits");
        assert_eq!(poll(first.as_mut()), Poll::Ready(Ok(7)));
        assert_eq!(
            poll(second.as_mut()),
            Poll::Ready(Ok(7)),
            "the second caller gets the first load's value"
        );
        assert_eq!(loads.get(), 1, "one load for two callers");
        // Later callers get the value at once.
        assert_eq!(
            pollster::block_on(once.get_or_load(|| async { Ok(1) })),
            Ok(7)
        );
        assert_eq!(once.get(), Some(7));
    }

    #[test]
    fn a_failed_load_fails_its_waiters_and_is_not_kept() {
        let once: LoadOnce<u32> = LoadOnce::default();
        let (finish, finished) = oneshot::channel::<Result<u32, String>>();
        let mut first = pin!(once.get_or_load(|| async move { finished.await.unwrap_or(Ok(0)) }));
        assert!(poll(first.as_mut()).is_pending());
        let mut second = pin!(once.get_or_load(|| async { Ok(5) }));
        assert!(poll(second.as_mut()).is_pending());
        finish
            .send(Err("no model".to_owned()))
            .expect("the load waits");
        assert_eq!(
            poll(first.as_mut()),
            Poll::Ready(Err("no model".to_owned()))
        );
        assert_eq!(
            poll(second.as_mut()),
            Poll::Ready(Err("no model".to_owned()))
        );
        assert_eq!(
            pollster::block_on(once.get_or_load(|| async { Ok(5) })),
            Ok(5),
            "the next caller loads again"
        );
        once.forget();
        assert_eq!(once.get(), None);
    }
}
