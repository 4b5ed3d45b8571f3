"""Steel Arena (foundation, not registered yet): the data files, their validated loader and the
data-variant declaration. The game object (``GAME``), its rules kernels and players come later;
until then the package defines no ``GAME``, so game discovery skips it and ``simlab games``
does not list it."""
