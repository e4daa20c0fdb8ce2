"""The errors a user can cause, reported by the CLI as one line and a non-zero exit."""

from __future__ import annotations

from ascend_cot.build import BuildError
from ascend_cot.config import ConfigError
from ascend_cot.documents import DocsError
from ascend_cot.ground_truth import GroundTruthError
from ascend_cot.projects import ProjectsError
from ascend_cot.stages.general import GeneralSourceError
from ascend_cot.stats import StatsError
from ascend_cot.teacher import TeacherError
from ascend_cot.verification import ToolchainUnavailable

USER_ERRORS: tuple[type[Exception], ...] = (BuildError, ConfigError, DocsError, GroundTruthError, ProjectsError,
                                            GeneralSourceError, StatsError, TeacherError, ToolchainUnavailable)
