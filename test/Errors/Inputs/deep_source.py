"""Writes a kernel nested `n` levels deep in one way (argv: KIND N): the
compiler refuses source past its depth limits with a located error instead
of exhausting its stack."""
import sys

kind, n = sys.argv[1], int(sys.argv[2])
head = "@kernel\ndef k(X: *f32, n: i32):\n"
if kind == "parens":
    src = head + "    x = " + "(" * n + "1.0" + ")" * n + "\n    store(X, x)\n"
elif kind == "lists":
    src = head + "    x = " + "[" * n + "1.0" + "]" * n + "\n    store(X, 1.0)\n"
elif kind == "negations":
    src = head + "    x = " + "-" * n + "1.0\n    store(X, x)\n"
elif kind == "sum":
    src = head + "    x = load(X)" + " + 1.0" * (n - 1) + "\n    store(X, x)\n"
elif kind == "casts":
    src = head + "    x = load(X)" + ".to(f32)" * n + "\n    store(X, x)\n"
elif kind == "ifs":
    src = head + "".join("    " * (i + 1) + "if n > %d:\n" % i for i in range(n)) + "    " * (n + 1) + "store(X, 1.0)\n"
elif kind == "elifs":
    src = head + "    if n == 0:\n        store(X, 0.0)\n"
    src += "".join("    elif n == %d:\n        store(X, %d.0)\n" % (i, i) for i in range(1, n + 1))
elif kind == "helpers":
    src = "".join("def h%d(x):\n    return h%d(x) + 1.0\n\n" % (i, i + 1) for i in range(n - 1))
    src += "def h%d(x):\n    return x\n\n" % (n - 1)
    src += head + "    store(X, h0(load(X)))\n"
elif kind == "static_ranges":
    src = head + "    acc = 0.0\n    for i in static_range(%d):\n        for j in static_range(%d):\n" % (n, n)
    src += "            acc = acc + 1.0\n    store(X, acc)\n"
elif kind == "loops":
    src = head + "    acc = zeros([128], f32)\n"
    src += "".join("    " * (i + 1) + "for i%d in range(n):\n" % i for i in range(n))
    src += "    " * (n + 1) + "acc = acc + sum(load(X + arange(0, 128)), axis=0)\n"
    src += "    store(X + arange(0, 128), acc)\n"
else:
    sys.exit("unknown kind " + kind)
sys.stdout.write(src)
