"""`python -m shuangsheng.cli`: the command line, as the `shuangsheng` script runs it."""

from shuangsheng.cli import main

if __name__ == "__main__":
    main()
