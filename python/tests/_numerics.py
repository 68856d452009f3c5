"""Float64 comparison as test/common/Reference.h does it: the relative error
norm and every element, where NaN or infinity never passes."""
import math


def check_close(testcase, got, want, rtol, atol=0.0, what="result"):
    got, want = [float(g) for g in got], [float(w) for w in want]
    testcase.assertEqual(len(got), len(want), what + ": length")
    for i, (g, w) in enumerate(zip(got, want)):
        if not (math.isfinite(g) and abs(g - w) <= atol + rtol * abs(w)):
            testcase.fail("%s[%d] = %r, expected %r (rtol %g, atol %g)" % (what, i, g, w, rtol, atol))
    norm = math.sqrt(sum(w * w for w in want)) or 1.0
    error = math.sqrt(sum((g - w) ** 2 for g, w in zip(got, want))) / norm
    testcase.assertLessEqual(error, rtol, what + ": relative error norm")
