/**
 * A playbook run against three hosts for the task summary tests: `calm-host` passes (its failing
 * task is skipped), `localhost` fails one task after an ignored failure, and `unreachable-host`
 * refuses SSH (port 1), so it is unreachable at its first task.
 */
export const SUMMARY_INVENTORY = [
  'calm-host ansible_connection=local',
  'localhost ansible_connection=local',
  'unreachable-host ansible_host=127.0.0.1 ansible_port=1 ansible_user=nobody ansible_ssh_common_args="-o ConnectTimeout=5 -o StrictHostKeyChecking=no"',
].join('\n');

export const SUMMARY_PLAYBOOK = `- hosts: all
  gather_facts: false
  tasks:
    - name: check the connection
      ping:
    - name: a failure that is ignored
      command: /bin/false
      ignore_errors: true
      when: inventory_hostname == 'localhost'
    - name: break on purpose
      fail:
        msg: "disk is full on {{ inventory_hostname }}"
      when: inventory_hostname == 'localhost'
    - name: never reached
      debug:
        msg: after
`;
