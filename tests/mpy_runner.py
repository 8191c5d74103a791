"""Run test modules under MicroPython (or CPython): every test_* function.

    micropython -X heapsize=64K tests/mpy_runner.py test_engine_rules ...

The module names are looked up with tests/, firmware/ and the repository
root (for host_sim's virtual board) on sys.path. Test
functions here take no arguments and use plain asserts, so that pytest
runs the very same files on CPython. Prints "N passed, N failed" last.
"""
import gc
import sys

HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
sys.path.insert(0, HERE + "/..")
sys.path.insert(0, HERE)
sys.path.insert(0, HERE + "/../firmware")


def run(names):
    passed = failed = 0
    for name in names:
        mod = __import__(name)
        for attr in sorted(dir(mod)):
            fn = getattr(mod, attr)
            if not attr.startswith("test_") or not callable(fn):
                continue
            gc.collect()  # each test starts on a clean heap: steadier heap limits
            try:
                fn()
                passed += 1
            except Exception as e:  # report every failure, then go on
                failed += 1
                print("FAIL %s.%s: %s %s" % (name, attr, type(e).__name__, e))
                if hasattr(sys, "print_exception"):
                    sys.print_exception(e)
    print("%d passed, %d failed" % (passed, failed))
    return failed


if __name__ == "__main__":
    sys.exit(1 if run(sys.argv[1:]) else 0)
