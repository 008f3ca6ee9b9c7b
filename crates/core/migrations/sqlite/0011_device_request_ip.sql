-- Issue 22, item 3: the address a device sign-in request came from, shown on /activate beside
-- the name the device chose, and compared with the approver's network. NULL for requests made
-- before this column existed.
ALTER TABLE device_codes ADD COLUMN requested_ip TEXT;
