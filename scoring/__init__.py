"""The domain of a 双升级 knockout event: levels, hands, matches, the knockout, and the files they live in.

Everything here is pure except `scoring.workbook`, the only module that imports openpyxl.
"""
