# SPDX-License-Identifier: GPL-2.0
"""The charts of report.py and meter_report.py: clustered bars with error
bars, drawn by gnuplot (standard library otherwise)."""
import os
import shutil
import subprocess
import sys
import tempfile


def bars(png, panels, cats, labels, required=False):
    """Write @png: one panel per (title, ylabel, cell, log_ok) of @panels,
    cell = {(category, label): (mean, stddev)}; one bar group per category
    of @cats (x axis, in order), one series per label of @labels.  A panel
    with log_ok whose positive means span more than 50x gets a log y axis
    (0 not shown).  Without gnuplot: one line on stderr saying the chart
    is skipped, and False.  When gnuplot fails: exit 1 if @required, else
    a message on stderr and False.  True when written."""
    def give_up(why):
        if required:
            sys.exit("report.py: %s: cannot write %s" % (why, png))
        print("report.py: %s: chart %s skipped" % (why, png), file=sys.stderr)
        return False

    gnuplot = shutil.which("gnuplot")
    if not gnuplot:
        print("report.py: gnuplot not found: chart %s skipped (apt-get install gnuplot-nox)"
              % png, file=sys.stderr)
        return False
    with tempfile.TemporaryDirectory() as tmp:
        text = []
        for i, (title, ylabel, cell, log_ok) in enumerate(panels):
            pos = [m for m, _s in cell.values() if m > 0]
            logy = log_ok and bool(pos) and max(pos) / min(pos) > 50
            data = os.path.join(tmp, "panel%d" % i)
            with open(data, "w") as f:
                # one line per category: "name" mean1 sd1 mean2 sd2 ...
                for c in cats:
                    vals = []
                    for l in labels:      # NaN: no runs of this label here
                        m, sd = cell.get((c, l), (None, None))
                        vals += ["NaN", "NaN"] if m is None or (logy and m <= 0) \
                            else ["%g" % m, "%g" % sd]
                    f.write('"%s" %s\n' % (c.replace('"', "'"), " ".join(vals)))
            # autoscale ignores error bars: room above the highest one
            top = 1.1 * max([m + s for m, s in cell.values()] + [1e-9])
            text.append("""
set title "%(title)s%(log)s"
set ylabel "%(ylabel)s"
%(scale)s
plot for [i=1:%(n)d] "%(data)s" using (column(2*i)):(column(2*i+1)):xtic(1) title word(labels, i)
""" % {"title": title, "ylabel": ylabel, "n": len(labels), "data": data,
                "log": " (log scale, 0 not shown)" if logy else "",
                "scale": "set logscale y\nset yrange [*:*]" if logy else
                         "unset logscale y\nset yrange [0:%g]" % top})
        script = """
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo size %(w)d,%(h)d noenhanced
} else {
    set terminal png size %(w)d,%(h)d noenhanced
}
set output "%(png)s"
set multiplot layout %(np)d,1
set grid ytics
set key outside right top
set datafile missing "NaN"
set style data histograms
set style histogram errorbars gap 1 lw 1
set style fill solid 0.7 border -1
set xtics rotate by 30 right nomirror
set bmargin 10
set lmargin 22
labels = "%(labels)s"
%(panels)s
unset multiplot
""" % {"w": max(900, 90 * len(cats) * max(1, len(labels)) // 2 + 350),
       "h": max(600, 520 * len(panels)), "np": len(panels),
       "png": png.replace('"', '\\"'), "labels": " ".join(labels),
       "panels": "".join(text)}
        res = subprocess.run([gnuplot], input=script, text=True, capture_output=True)
        if res.returncode != 0 or not os.path.isfile(png) or os.path.getsize(png) == 0:
            return give_up("gnuplot failed:\n" + res.stderr)
    return True
