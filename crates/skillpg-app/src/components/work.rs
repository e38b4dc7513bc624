//! A panel's [`Phase`] in a signal, with the few moves its handlers make: begin work (refused
//! over work in hand), give it a new line, refuse an action, end it. The routing preview, the
//! lab and the chapter's experiment each hold one, so none can start a run over its own.

use leptos::prelude::*;

use crate::phase::{Event, Phase};

/// A panel's work. `Copy`, so every handler takes it whole.
#[derive(Clone, Copy, Debug)]
pub struct Work {
    phase: RwSignal<Phase>,
    status: RwSignal<String>,
}

impl Work {
    /// Idle work whose refusals over running work go to `status` (the page's live region).
    pub fn new(status: RwSignal<String>) -> Work {
        Work {
            phase: RwSignal::new(Phase::Idle),
            status,
        }
    }

    /// Moves the work on (`Phase::on`).
    pub fn send(self, event: Event) {
        self.phase.update(|p| *p = p.on(event));
    }

    /// Starts work with its line; `false` (and nothing done) when work is already in hand.
    pub fn begin(self, line: String) -> bool {
        if self.phase.with_untracked(Phase::is_working) {
            return false;
        }
        self.send(Event::Start(line));
        true
    }

    /// The work in hand's new line.
    pub fn say(self, line: String) {
        self.send(Event::Line(line));
    }

    /// The work in hand ended well.
    pub fn finish(self) {
        self.send(Event::Finish);
    }

    /// The work in hand failed.
    pub fn fail(self, why: String) {
        self.send(Event::Fail(why));
    }

    /// Refuses an action before any work began. Over work in hand, that work goes on and the
    /// status line says why.
    pub fn refuse(self, why: String) {
        if self.phase.with_untracked(Phase::is_working) {
            self.status.set(why);
        } else {
            self.send(Event::Refuse(why));
        }
    }

    /// Whether the person asked the work in hand to stop (read between steps).
    pub fn stop_asked(self) -> bool {
        self.phase.with_untracked(Phase::stop_asked)
    }

    /// Reads the phase (tracked: a view that calls it follows it).
    pub fn with<R>(self, f: impl FnOnce(&Phase) -> R) -> R {
        self.phase.with(f)
    }

    /// Whether work is in hand (tracked: for a button's `disabled`).
    pub fn is_working(self) -> bool {
        self.phase.with(Phase::is_working)
    }
}
