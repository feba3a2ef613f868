from deckcli.cli import main

main()
