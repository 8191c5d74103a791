"""The board's mechanical parts as code (build123d on OpenCascade): tiles,
pieces, the top panel, the case; the fit checks against the generated
boards and the physics' stack-up. `make mech` (tools/mech.py) makes them.

layout.py and fit.py need no CAD; parts.py, assembly.py and build.py do.
"""
