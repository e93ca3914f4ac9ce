from printgen.cli import main

main()
