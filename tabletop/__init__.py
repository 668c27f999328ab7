"""The web tabletop: campaigns, rosters, maps, battles and the live table."""
