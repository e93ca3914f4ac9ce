"""The languages printed on the pieces: Japanese, English, or both on each piece.

A module of its own so that the command line can offer the choice without loading the
renderer (start-up time: `printgen --help` imports nothing heavy).
"""

LANG_CHOICES = ("ja", "en", "both")
