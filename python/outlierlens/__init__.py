"""OutlierLens from Python (placeholder, filled below)."""
from . import _core
