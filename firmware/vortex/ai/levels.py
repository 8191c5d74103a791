"""Levels 1-6: a node budget each, so a level plays the same on any machine,
and a time cap in milliseconds that only a slow device reaches.

    (max depth, nodes, ms, root noise, building noise, table bits, plies)

Level 1 is gentle (a child can win): it looks at 40 actions, noisily.
Level 5 is the strongest that fits the RP2040's budget (3 s an action,
16 KB of tables): about 30 ms on the unix port here, which the device runs
100-135x slower, so there the 3 s cap may cut it short. Level 6 is for the
simulator and analysis on CPython (no cap).
"""
LEVELS = (
    (0, 0, 0, 0, 0, 0, 0),  # level 0: the quick mover of vortex.app.ai, no search
    (1, 40, 3000, 150, 200, 8, 3),
    (1, 120, 3000, 40, 60, 8, 3),
    (2, 200, 3000, 10, 16, 8, 4),
    (2, 260, 3000, 0, 8, 8, 4),
    (3, 420, 3000, 0, 4, 8, 4),
    (8, 4000, 0, 0, 4, 14, 10),
)
DEVICE_LEVELS = 5
