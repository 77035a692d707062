from gridsolver.launch import main

main()
