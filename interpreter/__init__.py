"""interpret: a declarative rules interpreter for tabletop games."""
from .engine.game import Game, clone, from_json, to_json
from .errors import ContentError, IllegalActionError, InternalError, InterpretError, RuleRuntimeError
from .core.model import Action

__all__ = ["Game", "Action", "clone", "to_json", "from_json", "InterpretError", "ContentError",
           "IllegalActionError", "RuleRuntimeError", "InternalError"]
__version__ = "0.1.0"
