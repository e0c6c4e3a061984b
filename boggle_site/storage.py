"""Static files storage: hashed names that browsers may cache forever, for ES modules too."""

from whitenoise.storage import CompressedManifestStaticFilesStorage  # type: ignore[import-untyped]


class StaticStorage(CompressedManifestStaticFilesStorage):
    """WhiteNoise's compressed, hashed storage that also rewrites `import … from "./x.js"` in
    the game's modules to the hashed names, so a page never mixes two versions of them."""

    support_js_module_import_aggregation = True
