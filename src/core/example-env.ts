/**
 * An example environment file (`.env.example`, `.env.sample`, `.env.template`, `example.env`): the
 * project's own list of the variables it reads. Never the real `.env`, whose values are the user's.
 * The transcript reader keeps such a file when it was read; the env-example extractor reads it.
 */
export const ENV_EXAMPLE_FILE =
  /(?:^|[\\/])(?:\.env\.(?:example|sample|template|dist|defaults)|example\.env|\.env-example)$/i;

/** A package manifest: the transcript reader keeps it when read (its scripts say how the project runs). */
export const PACKAGE_MANIFEST = /(?:^|[\\/])package\.json$/;

/** A CI configuration file: the transcript reader keeps it when read (it says what the project's gate runs). */
export const CI_CONFIG_FILE =
  /(?:^|\/)(?:\.github\/workflows\/[^/]+\.ya?ml|\.gitlab-ci\.ya?ml|\.circleci\/config\.ya?ml|\.travis\.ya?ml|azure-pipelines\.ya?ml|bitbucket-pipelines\.ya?ml|\.buildkite\/[^/]*\.ya?ml|\.woodpecker\.ya?ml|\.drone\.ya?ml)$/;
