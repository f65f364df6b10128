"""Scenario tests for the Castle Croquetnole rules engine, written from the rule texts.

Each test builds a physical-event stream (CONTRACT.md) from the start of a game with the helpers
in `builder`, folds it through the engine as a black box and checks the final-state summary and
the rulings' kinds, clauses and bonuses.  Clause numbers are RULES-SPEC.md §2's (CCN-nn) and its
gap resolutions (G-CCN-nn); where the spec and the source text differ, the source text wins and
the test says so.
"""
