from gridsolver.cli import main

main()
