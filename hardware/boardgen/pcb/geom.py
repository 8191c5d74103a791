"""Plane geometry in mm shared by the layout's measurements (feeds.py) and
its clean-up (stubs.py); no KiCad."""
import math


def nearest(p, a, b):
    """The distance from p to the segment a-b, and where along it the
    nearest point lies (mm from a)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = math.hypot(dx, dy)
    if n == 0:
        return math.hypot(p[0] - a[0], p[1] - a[1]), 0.0
    t = max(0.0, min(n, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / n))
    return math.hypot(p[0] - a[0] - dx * t / n, p[1] - a[1] - dy * t / n), t
