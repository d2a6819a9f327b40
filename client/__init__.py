"""What people and bots touch: the command line, (later) the terminal client and bots."""
