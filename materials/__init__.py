"""Printed materials (PDF). Imports reportlab: the CLI imports this package only inside the commands that print."""

from materials.documents import (
    FILE_NAMES,
    Built,
    MaterialsError,
    build_all,
    lots_pdf,
    notice_pdf,
    registration_pdf,
    rules_pdf,
    signoff_pdf,
    souvenir_pdf,
)
from materials.fonts import FontSet, FontSpec, choose_fonts

__all__ = [
    "FILE_NAMES",
    "Built",
    "FontSet",
    "FontSpec",
    "MaterialsError",
    "build_all",
    "choose_fonts",
    "lots_pdf",
    "notice_pdf",
    "registration_pdf",
    "rules_pdf",
    "signoff_pdf",
    "souvenir_pdf",
]
