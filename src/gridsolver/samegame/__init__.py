"""gridsolver.samegame: maximise the SameGame score, on Clickomania's rules.

The rules, the board kernels, the beam search and the named board sets
(``standard-20`` among them) are :mod:`gridsolver.clickomania`'s; this
package adds the SameGame searches (:mod:`.kernels`), the solver
(:mod:`.search`) and the ``gridsolver samegame`` commands (:mod:`.cli`).
"""
