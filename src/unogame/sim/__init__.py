"""Tournaments between bots: rounds played in parallel, statistics, tables and plots."""
