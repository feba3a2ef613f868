"""``deckcli edit``: an interactive deck builder in the terminal.

* :mod:`.session`: the deck being edited (its text, verdict, figures, undo history and save),
  through the library functions every command uses; no terminal toolkit;
* :mod:`.matchups`: simulations and suggestions in another process (games are CPU-bound),
  reported line by line as games finish;
* :mod:`.app`: the Textual application, a view of a session (imported only by ``deckcli edit``:
  no other command loads Textual).
"""
