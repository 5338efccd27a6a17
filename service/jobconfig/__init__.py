"""Reading AI Toolkit job configs as the trainer reads them (content layer for submitted input)."""
