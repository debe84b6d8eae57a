"""Tests of the PDF strategy reports (:mod:`pinastats.report`, ``pinastats report``)."""
