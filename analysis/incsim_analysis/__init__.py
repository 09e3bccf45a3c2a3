"""Reading incsim run directories and drawing paper-style figures.

Run with Debian's /usr/bin/python3 (python3-pandas, python3-matplotlib).
"""
