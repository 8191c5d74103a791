"""The board's design as code: dimensions, physics, the NFC front-end
model, the schematic (SKiDL), the parts list and the drawings.

tools/hardware.py regenerates every file of hardware/generated/ from here.
Nothing in this package runs on the board.
"""


def _import_skidl_quietly():
    # SKiDL opens a log file in the working directory as it is imported
    # (named after the script: skidl_REPL.log under pytest) and deletes it
    # when told to write no files. Two processes importing it in one folder
    # (make test's workers) race on that one file: FileNotFoundError. So it
    # is imported in a folder of its own, its file output stopped there.
    import os
    import shutil
    import tempfile
    here = os.getcwd()
    folder = tempfile.mkdtemp(prefix="vortex-skidl-")
    try:
        os.chdir(folder)
        from skidl.logger import stop_log_file_output
        stop_log_file_output()
    finally:
        os.chdir(here)
        shutil.rmtree(folder, ignore_errors=True)


_import_skidl_quietly()
