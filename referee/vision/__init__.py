"""The referee's eyes: frames → table millimetres → coins → tracks → trajectories → events."""
