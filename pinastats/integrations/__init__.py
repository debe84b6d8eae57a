"""Bridges to other libraries, each behind its own extra and imported only when asked for.

* :mod:`pinastats.integrations.openspiel`: Piña Coladice as an OpenSpiel game
  (``pip install 'pinastats[openspiel]'``), with bots in both directions in
  :mod:`pinastats.integrations.openspiel_bots`.

Importing :mod:`pinastats` never imports these modules or their libraries.
"""
