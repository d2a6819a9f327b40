"""What people and bots touch: the command line, the LAN commands, the line prompt and the
built-in random player."""
