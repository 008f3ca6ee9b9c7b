-- A SCIM token's name, given by the owner when they create it (which identity provider holds
-- it): the console lists tokens by it. Tokens made before it have '' and are listed by the date
-- they were created.
ALTER TABLE scim_tokens ADD COLUMN name TEXT NOT NULL DEFAULT '';
