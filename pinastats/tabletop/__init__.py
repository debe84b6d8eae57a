"""Playing Piña Coladice on a board: the session, its view, the notebook widget, the page."""
