"""outlierlens.view: open the desktop explorer on a NumPy array or a pandas DataFrame."""


def view(X, labels=None, detector=None, **params):
    """Not implemented yet."""
    raise NotImplementedError("view() is not available yet")
