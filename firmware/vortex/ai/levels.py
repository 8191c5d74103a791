"""Levels 1-6: a node budget each, so a level plays the same on any machine,
and a time cap in milliseconds that only a slow device reaches.

    (max depth, nodes, ms, root noise, building noise, advance, table bits, plies)

advance multiplies the evaluation's awakening term (vortex.ai.evaluate.
ADVANCE): the deep levels push their Travellers twice as hard. So level 5
scores 76.5% against level 6 as it was (54.5% with level 6's evaluation
and 10,000 nodes, most games drawn by the 80 quiet actions; docs/ai.md);
levels 1-4 play as they did.

Level 1 is gentle (a child can win): it looks at 40 actions, noisily.
Level 5 is the strongest that fits the RP2040's budget: 8,000 nodes, 2.8 s
an action on the emulated Pico on average from the built board (2,900
nodes a second there, 3,400 in a middle game; its slowest actions meet the
3 s cap), with 26 KB of tables (1,024 entries and history). Level 6 is for the simulator and analysis on
CPython (no cap): 20,000 nodes, about a second there. Levels 1-4 are as
they were before the search got fast.
"""
LEVELS = (
    (0, 0, 0, 0, 0, 0, 0, 0),  # level 0: the quick mover of vortex.app.ai, no search
    (1, 40, 3000, 150, 200, 1, 8, 3),
    (1, 120, 3000, 40, 60, 1, 8, 3),
    (2, 200, 3000, 10, 16, 1, 8, 4),
    (2, 260, 3000, 0, 8, 1, 8, 4),
    (4, 8000, 3000, 0, 4, 2, 10, 4),
    (8, 20000, 0, 0, 4, 2, 14, 10),
)
DEVICE_LEVELS = 5
