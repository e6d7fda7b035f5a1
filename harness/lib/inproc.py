# SPDX-License-Identifier: GPL-2.0
"""run_main(PATH, ARGS): the main() of the Python program at PATH, run in
this process with ARGS as its command line; returns what
subprocess.run(capture_output=True, text=True) would (returncode, stdout,
stderr).  The unit tests run our tools dozens of times: a python3 each
cost seconds of make lint.  The tools' own command-line entry is run
elsewhere: report.py by test_compare_verdict.sh and test_cover_letter.sh
(make lint), placement.py in the guests (make check), notes.py by make
lint-series.  The program must do its work in main(), its exit status
returned or given to sys.exit."""
import contextlib
import importlib.util
import io
import os
import sys
import types

_loaded = {}


def _load(path):
    path = os.path.abspath(path)
    if path not in _loaded:
        here = os.path.dirname(path)
        if here not in sys.path:
            sys.path.insert(0, here)    # its own imports, as when run
        name = "inproc_" + os.path.splitext(os.path.basename(path))[0].replace("-", "_")
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        _loaded[path] = mod
    return _loaded[path]


def run_main(path, args):
    main = _load(path).main
    out, err = io.StringIO(), io.StringIO()
    argv, sys.argv = sys.argv, [path] + list(args)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main()
    except SystemExit as e:
        code = e.code
    finally:
        sys.argv = argv
    if isinstance(code, str):           # sys.exit(MESSAGE): printed, status 1
        err.write(code + "\n")
        code = 1
    return types.SimpleNamespace(returncode=code or 0, stdout=out.getvalue(),
                                 stderr=err.getvalue())
