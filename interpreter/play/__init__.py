"""Playing in the terminal: the `interpret` command line, the screens, the narration of events,
game logs (save, resume, replay) and `interpret show`."""
