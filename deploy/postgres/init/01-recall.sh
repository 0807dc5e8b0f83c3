#!/bin/sh
# Runs once, as the superuser, when the data volume is new: the role
# recall connects as (not a superuser), its database, and pgvector, the
# one extension that needs a superuser to create. recall creates the rest
# (its tables, unaccent, btree_gin) the first time it opens the database.
set -eu
psql --set ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres \
	--set pw="$(cat /run/secrets/recall_password)" <<'SQL'
CREATE ROLE recall LOGIN PASSWORD :'pw';
CREATE DATABASE recall OWNER recall;
\connect recall
CREATE EXTENSION vector;
SQL
