"""The five corpus stages; each exposes ``run(ctx: StageContext) -> StageResult``."""
