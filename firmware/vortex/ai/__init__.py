"""The board's opponent: a search over the engine's actions.

    rng.py       xorshift32, the same numbers on CPython and MicroPython
    zobrist.py   position keys, updated action by action
    evaluate.py  the evaluation, one named function per term
    build.py     the building phase: where to lay which tile, and why
    search.py    negamax alpha-beta, iterative deepening, quiescence, a
                 transposition table in one bytearray; nothing allocated
                 per node
    levels.py    levels 1-6 as node budgets and time caps

The board calls it through vortex.app.ai.Ai(level, seed).choose(pos).
"""
