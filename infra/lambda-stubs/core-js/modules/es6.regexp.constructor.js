// Empty: Node 22 has this natively (infra/lambda-stubs/core-js/README.md).
