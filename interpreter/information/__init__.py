"""What each seat may know, derived from declared visibility: views of zones and cards
(`views.py`), a seat's observation (`observation.py`), names for cards a seat cannot identify
(`handles.py`), texts written for a viewer (`labels.py`), and what each seat remembers
(`memory.py`)."""
