"""Twin It's referee: competitive, team and cooperative modes, Motifs Tabous (see :mod:`.game`)."""
