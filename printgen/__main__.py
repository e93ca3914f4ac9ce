from printgen.cli import command

command()
