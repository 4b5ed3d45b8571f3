"""Reports: a notebook executed on a stored run and rendered to HTML with a summary on top."""

from simlab.report.build import report_experiment, report_run

__all__ = ["report_experiment", "report_run"]
