//! A panel's work as data: what it is doing now ([`Phase`]), what can happen to it ([`Event`]),
//! and the one pure function that moves it on ([`Phase::on`]). The routing preview, the lab and
//! the chapter's experiment each hold one; their views render it and their handlers send it
//! events, so "busy and failed at once", a second run started over the first, or a late
//! progress report from a stopped task cannot be written down. Plain Rust, tested natively.

/// How far the work in hand has got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// A download: bytes in, and in all when the server says.
    Bytes { loaded: u64, total: Option<u64> },
    /// Steps of a run: done of total.
    Steps { done: usize, total: usize },
}

/// What a panel is doing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Phase {
    /// Nothing in hand; the last work, if any, ended well.
    #[default]
    Idle,
    /// Work in hand: its line, how far it has got, and whether the person asked it to stop.
    Working {
        what: String,
        progress: Option<Progress>,
        stopping: bool,
    },
    /// The last work failed, and why, in the page's words.
    Failed(String),
}

/// What happens to a panel's work.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Work begins, with its line. Refused while other work is in hand.
    Start(String),
    /// The work in hand has a new line (its progress is kept).
    Line(String),
    /// The work in hand has got this far.
    Progressed(Progress),
    /// The person asks the work in hand to stop.
    Stop,
    /// The work in hand ended well (or stopped as asked).
    Finish,
    /// The work in hand failed.
    Fail(String),
    /// An action was refused before any work began (nothing to run on, a bad address). Over
    /// work in hand it changes nothing: that work goes on, and the page says why elsewhere.
    Refuse(String),
    /// The person starts over: a failure is forgotten.
    Clear,
}

impl Phase {
    /// The phase after `event`. Events that do not apply leave the phase as it is: a start over
    /// running work (the button was pressed twice), a line or progress from work that already
    /// ended, a stop with nothing to stop.
    pub fn on(&self, event: Event) -> Phase {
        match (self, event) {
            (Phase::Working { .. }, Event::Start(_)) => self.clone(),
            (_, Event::Start(what)) => Phase::Working {
                what,
                progress: None,
                stopping: false,
            },
            (
                Phase::Working {
                    progress, stopping, ..
                },
                Event::Line(what),
            ) => Phase::Working {
                what,
                progress: *progress,
                stopping: *stopping,
            },
            (Phase::Working { what, stopping, .. }, Event::Progressed(p)) => Phase::Working {
                what: what.clone(),
                progress: Some(p),
                stopping: *stopping,
            },
            (Phase::Working { what, progress, .. }, Event::Stop) => Phase::Working {
                what: what.clone(),
                progress: *progress,
                stopping: true,
            },
            (Phase::Working { .. }, Event::Finish) => Phase::Idle,
            (Phase::Working { .. }, Event::Fail(why)) => Phase::Failed(why),
            (Phase::Idle | Phase::Failed(_), Event::Refuse(why)) => Phase::Failed(why),
            (Phase::Failed(_), Event::Clear) => Phase::Idle,
            _ => self.clone(),
        }
    }

    /// Whether work is in hand (its buttons are off).
    pub fn is_working(&self) -> bool {
        matches!(self, Phase::Working { .. })
    }

    /// Whether the person asked the work in hand to stop (a loop reads it between steps).
    pub fn stop_asked(&self) -> bool {
        matches!(self, Phase::Working { stopping: true, .. })
    }

    /// The work's line while it is in hand.
    pub fn line(&self) -> Option<&str> {
        match self {
            Phase::Working { what, .. } => Some(what),
            _ => None,
        }
    }

    /// The failure, when the last work failed.
    pub fn failure(&self) -> Option<&str> {
        match self {
            Phase::Failed(why) => Some(why),
            _ => None,
        }
    }

    /// A download's bytes, while one runs (the progress bar's reading).
    pub fn download(&self) -> Option<(u64, Option<u64>)> {
        match self {
            Phase::Working {
                progress: Some(Progress::Bytes { loaded, total }),
                ..
            } => Some((*loaded, *total)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn working(what: &str) -> Phase {
        Phase::Idle.on(Event::Start(what.into()))
    }

    #[test]
    fn a_start_over_running_work_is_refused() {
        let p = working("Routing…");
        assert_eq!(p.on(Event::Start("again".into())), p);
        assert!(p.is_working());
        assert_eq!(p.line(), Some("Routing…"));
    }

    #[test]
    fn work_ends_idle_or_failed_never_both() {
        let p = working("Loading…");
        assert_eq!(p.on(Event::Finish), Phase::Idle);
        let failed = p.on(Event::Fail("no model".into()));
        assert_eq!(failed.failure(), Some("no model"));
        assert!(!failed.is_working());
        assert_eq!(failed.line(), None);
        // A new start forgets the failure.
        let again = failed.on(Event::Start("Loading…".into()));
        assert!(again.is_working());
        assert_eq!(again.failure(), None);
        assert_eq!(failed.on(Event::Clear), Phase::Idle);
    }

    #[test]
    fn late_reports_from_ended_work_change_nothing() {
        for ended in [Phase::Idle, Phase::Failed("x".into())] {
            assert_eq!(ended.on(Event::Line("late".into())), ended);
            assert_eq!(
                ended.on(Event::Progressed(Progress::Steps { done: 1, total: 2 })),
                ended
            );
            assert_eq!(ended.on(Event::Stop), ended);
            assert_eq!(ended.on(Event::Finish), ended);
            // A late failure of work already ended does not replace what the panel shows.
            assert_eq!(ended.on(Event::Fail("late".into())), ended);
        }
        assert_eq!(Phase::Idle.on(Event::Clear), Phase::Idle);
    }

    #[test]
    fn a_refused_action_shows_when_idle_and_leaves_running_work_alone() {
        let refused = Phase::Idle.on(Event::Refuse("Load a model first.".into()));
        assert_eq!(refused.failure(), Some("Load a model first."));
        let again = refused.on(Event::Refuse("Paste a full address.".into()));
        assert_eq!(again.failure(), Some("Paste a full address."));
        let p = working("Downloading…");
        assert_eq!(p.on(Event::Refuse("Paste a full address.".into())), p);
    }

    #[test]
    fn a_stop_is_kept_through_lines_and_progress_until_the_work_ends() {
        let p = working("Downloading…").on(Event::Stop);
        assert!(p.stop_asked());
        let p = p
            .on(Event::Line("still going".into()))
            .on(Event::Progressed(Progress::Bytes {
                loaded: 10,
                total: Some(20),
            }));
        assert!(p.stop_asked());
        assert_eq!(p.download(), Some((10, Some(20))));
        assert_eq!(p.on(Event::Finish), Phase::Idle);
        // The next work starts without the old stop.
        assert!(!Phase::Idle.on(Event::Start("next".into())).stop_asked());
    }

    #[test]
    fn a_new_line_keeps_the_progress_and_steps_are_not_a_download() {
        let p = working("Downloading…").on(Event::Progressed(Progress::Bytes {
            loaded: 5,
            total: None,
        }));
        let p = p.on(Event::Line("Preparing…".into()));
        assert_eq!(p.download(), Some((5, None)));
        let p = p.on(Event::Progressed(Progress::Steps { done: 1, total: 3 }));
        assert_eq!(p.download(), None);
    }
}
