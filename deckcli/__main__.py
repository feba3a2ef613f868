from deckcli.entry import main

main()
