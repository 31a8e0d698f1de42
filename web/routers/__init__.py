"""One router per resource: state, video, events, actions (and corrections), undo, export."""
